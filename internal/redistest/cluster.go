package redistest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// ClusterSize is the number of masters of a local cluster.
const ClusterSize = 3

const (
	// clusterTimeout bounds the creation of a local cluster.
	clusterTimeout = 15 * time.Second
	// clusterNodeTimeout is the nodes' cluster-node-timeout once the cluster
	// is formed (Redis's default): a node busy for a moment on a loaded
	// machine is not taken for a failed one.
	clusterNodeTimeout = "15000"
)

// Cluster is a Redis Cluster for a test.
type Cluster struct {
	url   string
	nodes []*Server
}

// StartCluster returns a running Redis Cluster for t: REDIS_CLUSTER_URL when
// set, else a private one of ClusterSize masters and no replicas on free
// 127.0.0.1 ports, made with redis-cli --cluster create, stopped and removed
// when the test ends. It returns once every node reports cluster_state:ok.
// Creation takes about 2 s, most of it redis-cli's fixed waits.
// It skips t (fails it when CI=true) if redis-server or redis-cli is missing.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	if u := os.Getenv("REDIS_CLUSTER_URL"); u != "" {
		return &Cluster{url: u}
	}
	server := lookPath(t, "redis-server", "REDIS_CLUSTER_URL")
	cli := lookPath(t, "redis-cli", "REDIS_CLUSTER_URL")
	c := &Cluster{}
	addrs := make([]string, ClusterSize)
	for i := range ClusterSize {
		n := startLocal(t, server, true)
		c.nodes = append(c.nodes, n)
		addrs[i] = n.Addr()
	}
	c.url = "redis://" + strings.Join(addrs, ",")

	ctx, cancel := context.WithTimeout(context.Background(), clusterTimeout)
	defer cancel()
	args := append([]string{"--cluster", "create"}, addrs...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.CommandContext(ctx, cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redistest: redis-cli %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	// redis-cli returns once the nodes have met; each node reports ok once
	// it has heard every slot's owner.
	for _, a := range addrs {
		for {
			state, _, err := infoField(a, "cluster_state", "CLUSTER", "INFO")
			if err == nil && state == "ok" {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("redistest: cluster node %s not ok after %v: state %q, %v", a, clusterTimeout, state, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	for _, a := range addrs {
		if _, err := bulkCommand(a, "CONFIG", "SET", "cluster-node-timeout", clusterNodeTimeout); err != nil {
			t.Fatalf("redistest: cluster node %s: CONFIG SET cluster-node-timeout: %v", a, err)
		}
	}
	return c
}

// URL names the cluster: redis://host:port,host:port,… with every master as
// a seed node (REDIS_CLUSTER_URL as is when set).
func (c *Cluster) URL() string { return c.url }

// Nodes are the cluster's servers, nil for REDIS_CLUSTER_URL. Their Stop,
// Restart, Pause and Resume act on one node (a restarted node keeps its
// identity, slots and data, and has a cluster-node-timeout of 1 s).
func (c *Cluster) Nodes() []*Server { return c.nodes }
