package suite

import (
	"bytes"
	"io/fs"
	"testing/fstest"

	"sigs.k8s.io/yaml"
)

// upstreamBaseManifests is where upstream's suite keeps its base manifests (ConformanceOptions.BaseManifests default).
const upstreamBaseManifests = "base/manifests.yaml"

// withoutBaseDeployments serves upstream's manifests unchanged except its base manifests, from which it leaves out
// the Deployments. The hub runs no workloads — a Fleet hub has no nodes for them, and the local hub no kubelet — so
// their Pods would stay Pending forever, and upstream's readiness wait (NamespacesMustBeReady) waits for every Pod of
// a namespace. Their Services stay: tests refer to them as backends and judge the status that gives.
type withoutBaseDeployments struct{ fs.FS }

func (m withoutBaseDeployments) Open(name string) (fs.File, error) {
	if name != upstreamBaseManifests {
		return m.FS.Open(name)
	}
	raw, err := fs.ReadFile(m.FS, name)
	if err != nil {
		return nil, err
	}
	filtered, err := dropKind(raw, "Deployment")
	if err != nil {
		return nil, err
	}
	return fstest.MapFS{name: {Data: filtered}}.Open(name)
}

// dropKind removes the YAML documents of the given kind from a multi-document manifest.
func dropKind(manifest []byte, kind string) ([]byte, error) {
	var kept [][]byte
	for _, doc := range bytes.Split(manifest, []byte("\n---\n")) {
		var meta struct {
			Kind string `json:"kind"`
		}
		if err := yaml.Unmarshal(doc, &meta); err != nil {
			return nil, err
		}
		if meta.Kind != kind {
			kept = append(kept, doc)
		}
	}
	return bytes.Join(kept, []byte("\n---\n")), nil
}
