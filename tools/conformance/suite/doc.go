// Package suite runs the Gateway API conformance suite (sigs.k8s.io/gateway-api/conformance) against the hub of
// the local system, one release at a time: go.mod pins v1.2.1; go.v1.6.3.mod with -tags gatewayapi_v1_6 pins v1.6.3
// (the two releases' ConformanceOptions differ in the types of a few fields, see options_v1_*.go).
package suite
