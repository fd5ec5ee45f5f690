package deps

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/bwmarrin/discordgo"
	_ "github.com/caarlos0/env/v11"
	_ "github.com/gorilla/websocket"
	_ "github.com/nicksnyder/go-i18n/v2/i18n"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/stretchr/testify/require"
	_ "go.etcd.io/bbolt"
	_ "golang.org/x/text/language"
)
