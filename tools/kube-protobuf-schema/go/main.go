// Command kube-protobuf-schema writes the protobuf-to-JSON schema libs/controller decodes built-in kinds with.
//
// The .proto files of k8s.io/api say how an object is laid out on the wire, but not how the API server writes the
// same object as JSON: which fields encoding/json omits (omitempty, omitzero), which are pointers (present only when
// set, even to a zero value), and which types marshal themselves (metav1.Time as RFC 3339, IntOrString as a number
// or a string, []byte as base64). All of that is in the Go types, so the schema is read from them by reflection, from
// the same k8s.io/api and k8s.io/apimachinery versions our kube-apiserver is built from.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The kinds an informer may receive as protobuf, keyed as the API server names them in runtime.Unknown's TypeMeta.
var kinds = map[string]any{
	"v1/ConfigMap":                          corev1.ConfigMap{},
	"v1/ConfigMapList":                      corev1.ConfigMapList{},
	"v1/Secret":                             corev1.Secret{},
	"v1/SecretList":                         corev1.SecretList{},
	"v1/Service":                            corev1.Service{},
	"v1/ServiceList":                        corev1.ServiceList{},
	"v1/Namespace":                          corev1.Namespace{},
	"v1/NamespaceList":                      corev1.NamespaceList{},
	"v1/Node":                               corev1.Node{},
	"v1/NodeList":                           corev1.NodeList{},
	"discovery.k8s.io/v1/EndpointSlice":     discoveryv1.EndpointSlice{},
	"discovery.k8s.io/v1/EndpointSliceList": discoveryv1.EndpointSliceList{},
	"coordination.k8s.io/v1/Lease":          coordinationv1.Lease{},
	"coordination.k8s.io/v1/LeaseList":      coordinationv1.LeaseList{},
	// A watch's ERROR event and an error answer carry a Status.
	"v1/Status": metav1.Status{},
}

// Types that marshal themselves to JSON; each has its own decoder in libs/controller.
var selfMarshalling = map[reflect.Type]string{
	reflect.TypeOf(metav1.Time{}):        "time",
	reflect.TypeOf(metav1.MicroTime{}):   "microTime",
	reflect.TypeOf(metav1.FieldsV1{}):    "fieldsV1",
	reflect.TypeOf(resource.Quantity{}):  "quantity",
	reflect.TypeOf(intstr.IntOrString{}): "intOrString",
}

var marshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

// The types whose zero value libs/controller's decoder recognises, so `omitzero` on them can be honoured.
var zeroOmittable = map[string]bool{"string": true, "int": true, "bool": true, "time": true, "microTime": true}

// Field flags, as libs/controller's decoder reads them.
const (
	repeated  = 1 << iota // a slice other than []byte
	pointer               // a Go pointer: present only when set
	omitEmpty             // json:",omitempty"
	omitZero              // json:",omitzero"
)

// field is [number, jsonName, type, flags]; type is a scalar name, a self-marshalling type's name, a message name,
// or "map:" + the value's type (keys are always strings).
type field [4]any

type schema struct {
	messages map[string][]field
	pending  []reflect.Type
}

func messageName(t reflect.Type) string {
	parts := strings.Split(t.PkgPath(), "/")
	return parts[len(parts)-2] + "." + parts[len(parts)-1] + "." + t.Name()
}

func (s *schema) typeName(t reflect.Type) string {
	if name, ok := selfMarshalling[t]; ok {
		return name
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int32, reflect.Int64, reflect.Int, reflect.Uint32, reflect.Uint64:
		return "int"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "bytes"
		}
	case reflect.Struct:
		if t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
			panic(fmt.Sprintf("%s marshals itself to JSON and has no decoder", t))
		}
		name := messageName(t)
		if _, seen := s.messages[name]; !seen {
			s.messages[name] = nil
			s.pending = append(s.pending, t)
		}
		return name
	}
	panic(fmt.Sprintf("no protobuf mapping for %s (%s)", t, t.Kind()))
}

func (s *schema) describe(t reflect.Type) []field {
	var fields []field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, ok := f.Tag.Lookup("protobuf")
		if !ok {
			continue // TypeMeta: the envelope carries apiVersion and kind
		}
		parts := strings.Split(tag, ",")
		number, err := strconv.Atoi(parts[1])
		if err != nil {
			panic(fmt.Sprintf("%s.%s: protobuf tag %q", t, f.Name, tag))
		}
		jsonTag := strings.Split(f.Tag.Get("json"), ",")
		if jsonTag[0] == "-" {
			continue
		}
		flags := 0
		for _, option := range jsonTag[1:] {
			switch option {
			case "omitempty":
				flags |= omitEmpty
			case "omitzero":
				flags |= omitZero
			case "inline":
				panic(fmt.Sprintf("%s.%s: an inlined message has no decoder", t, f.Name))
			}
		}
		name := jsonTag[0]
		if name == "" {
			name = f.Name
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			flags |= pointer
			ft = ft.Elem()
		}
		var typeName string
		switch {
		case ft.Kind() == reflect.Map:
			if ft.Key().Kind() != reflect.String {
				panic(fmt.Sprintf("%s.%s: map key %s", t, f.Name, ft.Key()))
			}
			typeName = "map:" + s.typeName(ft.Elem())
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() != reflect.Uint8:
			flags |= repeated
			elem := ft.Elem()
			if elem.Kind() == reflect.Pointer {
				panic(fmt.Sprintf("%s.%s: slice of pointers", t, f.Name))
			}
			typeName = s.typeName(elem)
		default:
			typeName = s.typeName(ft)
		}
		if flags&omitZero != 0 && !zeroOmittable[typeName] {
			panic(fmt.Sprintf("%s.%s: omitzero on %s has no decoder", t, f.Name, typeName))
		}
		fields = append(fields, field{number, name, typeName, flags})
	}
	return fields
}

// apiVersion is the k8s.io/api this program was built with, as go.mod pins it.
func apiVersion() string {
	info, ok := debug.ReadBuildInfo()
	if ok {
		for _, dep := range info.Deps {
			if dep.Path == "k8s.io/api" {
				return dep.Version
			}
		}
	}
	panic("no build info for k8s.io/api")
}

func main() {
	s := &schema{messages: map[string][]field{}}
	roots := map[string]string{}
	for kind, value := range kinds {
		roots[kind] = s.typeName(reflect.TypeOf(value))
	}
	for len(s.pending) > 0 {
		t := s.pending[0]
		s.pending = s.pending[1:]
		s.messages[messageName(t)] = s.describe(t)
	}
	out := &strings.Builder{}
	fmt.Fprintf(out, "// Generated by tools/kube-protobuf-schema (pnpm nx run kube-protobuf-schema:generate) from the Go types of\n")
	fmt.Fprintf(out, "// k8s.io/api %s; do not edit. [number, JSON name, type, flags]: see kube-protobuf-schema.ts.\n", apiVersion())
	fmt.Fprintf(out, "import type { KubeProtobufSchema } from './kube-protobuf-schema.js';\n\n")
	fmt.Fprintf(out, "export const builtInSchema: KubeProtobufSchema = {\n  kinds: {\n")
	for _, kind := range sortedKeys(roots) {
		fmt.Fprintf(out, "    %q: %q,\n", kind, roots[kind])
	}
	fmt.Fprintf(out, "  },\n  messages: {\n")
	for _, name := range sortedKeys(s.messages) {
		fmt.Fprintf(out, "    %q: [\n", name)
		for _, f := range s.messages[name] {
			fmt.Fprintf(out, "      [%d, %q, %q, %d],\n", f[0], f[1], f[2], f[3])
		}
		fmt.Fprintf(out, "    ],\n")
	}
	fmt.Fprintf(out, "  },\n};\n")
	os.Stdout.WriteString(out.String())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}
