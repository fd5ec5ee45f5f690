package fakediscord

import "net/http"

func (s *Server) webRoutes(mux *http.ServeMux) {}
