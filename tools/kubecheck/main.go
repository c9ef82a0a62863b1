// Command kubecheck validates the Kubernetes manifests in Markdown files
// (the yaml blocks that hold an apiVersion and a kind) against the schema
// of the Kubernetes API that client-go carries compiled in: every field
// must be one the object's type declares, of the kind it declares. It
// reads no cluster and downloads nothing, so CI without internet can run
// it. It is a module of its own (its dependencies stay out of the suite's
// go.mod); .ci/run runs it on docs/fleet.md:
//
//	(cd tools/kubecheck && go run . ../../docs/fleet.md)
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"
)

// broken is a Job with a field no Job has: the validator must refuse it,
// or it checks nothing.
const broken = `apiVersion: batch/v1
kind: Job
metadata: {name: broken}
spec:
  completionMode: Indexed
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: c
          image: example
          resourcez: {}
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: kubecheck FILE.md...")
		os.Exit(2)
	}
	tc := applyconfigurations.NewTypeConverter(scheme.Scheme)
	if err := validate(tc, []byte(broken)); err == nil {
		fmt.Fprintln(os.Stderr, "kubecheck: a Job with an unknown field passed: the validator checks nothing")
		os.Exit(1)
	}
	checked, failed := 0, 0
	for _, path := range os.Args[1:] {
		docs, err := manifests(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "kubecheck: %v\n", err)
			os.Exit(2)
		}
		for _, d := range docs {
			checked++
			if err := validate(tc, d.body); err != nil {
				failed++
				fmt.Printf("%s:%d: %v\n", path, d.line, err)
			}
		}
	}
	if checked == 0 {
		fmt.Fprintln(os.Stderr, "kubecheck: no Kubernetes manifest found")
		os.Exit(1)
	}
	fmt.Printf("kubecheck: %d manifest(s), %d refused\n", checked, failed)
	if failed > 0 {
		os.Exit(1)
	}
}

// validate checks one object against its type's schema.
func validate(tc managedfields.TypeConverter, doc []byte) error {
	var obj map[string]any
	if err := yaml.UnmarshalStrict(doc, &obj); err != nil {
		return fmt.Errorf("not YAML: %w", err)
	}
	u := &unstructured.Unstructured{Object: obj}
	if u.GetAPIVersion() == "" || u.GetKind() == "" {
		return fmt.Errorf("no apiVersion or kind")
	}
	if _, err := tc.ObjectToTyped(u); err != nil {
		return fmt.Errorf("%s %s %q: %w", u.GetAPIVersion(), u.GetKind(), u.GetName(), err)
	}
	return nil
}

type manifest struct {
	line int // where the document starts in the Markdown file
	body []byte
}

// manifests returns the Kubernetes objects of a Markdown file's yaml
// blocks: each document ("---" between them) that has an apiVersion and
// a kind.
func manifests(path string) ([]manifest, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []manifest
	var cur *bytes.Buffer
	start, inBlock := 0, false
	flush := func() {
		if cur != nil && strings.Contains(cur.String(), "\napiVersion:") && strings.Contains(cur.String(), "\nkind:") {
			out = append(out, manifest{line: start, body: bytes.Clone(cur.Bytes())})
		}
		cur = nil
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case !inBlock && line == "```yaml":
			inBlock, cur, start = true, &bytes.Buffer{}, n+1
			cur.WriteString("\n")
		case inBlock && line == "```":
			flush()
			inBlock = false
		case inBlock && line == "---":
			flush()
			cur, start = &bytes.Buffer{}, n+1
			cur.WriteString("\n")
		case inBlock:
			cur.WriteString(line + "\n")
		}
	}
	return out, sc.Err()
}
