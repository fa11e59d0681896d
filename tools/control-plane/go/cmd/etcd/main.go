// Command etcd is upstream etcd at the version k8s.io/apiserver pins.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
