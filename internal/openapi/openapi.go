// Package openapi exports the Content Management HTTP API as an OpenAPI 3.1
// document: the 16 endpoints of the spec's section 4, their parameters and
// request bodies, and responses whose schemas are the suite's own embedded
// JSON Schemas (package schemas). It describes what the spec states and
// says so where the spec shows nothing.
package openapi

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/conformance-suite/conformance/internal/spec"
)

// Version is the OpenAPI version of the document.
const Version = "3.1.0"

// Document builds the OpenAPI document; suiteVersion is the version of
// the suite that exports it (info.version: the spec names no version
// scheme of its own, section 9).
func Document(suiteVersion string) (map[string]any, error) {
	comps, err := componentSchemas()
	if err != nil {
		return nil, err
	}
	paths := map[string]any{}
	for _, ep := range spec.Endpoints() {
		op, ok := operations[ep]
		if !ok {
			return nil, fmt.Errorf("openapi: no description of %s", ep)
		}
		if _, ok := comps[op.okSchema]; op.okSchema != "" && !ok {
			return nil, fmt.Errorf("openapi: %s answers with schema %q, which package schemas does not have", ep, op.okSchema)
		}
		item, _ := paths[ep.Path()].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[ep.Path()] = item
		}
		item[strings.ToLower(ep.Method())] = operationObject(ep, op)
	}
	return map[string]any{
		"openapi": Version,
		"info": map[string]any{
			"title":       "Content Management HTTP API",
			"version":     suiteVersion,
			"description": infoDescription,
		},
		"servers": []any{map[string]any{
			"url":         "{protocol}://{domain}",
			"description": "The site root ({base_url}): the domain may carry a port and a path prefix. Every endpoint lives under {base_url}/api/ (section 1).",
			"variables": map[string]any{
				"protocol": map[string]any{"default": "https", "enum": []string{"https", "http"}},
				"domain":   map[string]any{"default": "example.org"},
			},
		}},
		"tags": []any{
			tagObject("pages", "Pages (2.1, 3, 4.1-4.5)"),
			tagObject("tags", "Tags (2.2, 4.6)"),
			tagObject("categories", "Categories (2.3, 4.7)"),
			tagObject("users", "Public user profiles (2.4, 4.8)"),
			tagObject("settings", "Site settings (2.6, 4.9, 4.10)"),
			tagObject("files", "Images and files attached to pages (2.5, 4.11-4.13)"),
		},
		"paths": paths,
		"components": map[string]any{
			"schemas":         comps,
			"responses":       errorResponses(),
			"securitySchemes": securitySchemes(),
		},
	}, nil
}

// JSON is the document as indented JSON, ending in a newline.
func JSON(suiteVersion string) ([]byte, error) {
	doc, err := Document(suiteVersion)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

const infoDescription = `Derived from the Content Management HTTP API Specification by the conformance suite; ` +
	`the response schemas are the JSON Schemas the suite validates responses against.

- Every response has Content-Type application/json (general rule 2). The HTTP status is authoritative; ` +
	`the status body field ("0" success, "1" failure) is kept for earlier releases (section 9).
- Tokens (section 5): for GET and DELETE the API token (token) and the authentication token ` +
	`(authentication) go in the query string; for POST and PUT they go in the JSON or form body, ` +
	`as the required body fields token and authentication.
- An unknown endpoint answers 401 with an early-error body (section 7).
- Not shown in the spec, so not described here: the request fields and response of the two upload ` +
	`endpoints (4.12, 4.13), page type transitions (3), events (6), rate and upload limits (8).`

func tagObject(name, doc string) map[string]any {
	return map[string]any{"name": name, "description": doc}
}

// operationObject is the OpenAPI Operation Object of one endpoint.
func operationObject(ep spec.Endpoint, op operation) map[string]any {
	o := map[string]any{
		"operationId": op.id,
		"summary":     op.summary,
		"description": fmt.Sprintf("%s (spec section %s).", ep, op.section),
		"tags":        []string{op.tag},
	}
	var params []any
	if op.pathParam != "" {
		params = append(params, map[string]any{"name": op.pathParam, "in": "path", "required": true,
			"description": op.pathDoc, "schema": map[string]any{"type": "string"}})
	}
	for _, q := range op.query {
		params = append(params, q)
	}
	if params != nil {
		o["parameters"] = params
	}
	// POST and PUT carry the tokens in the body (writeBody, uploadBody):
	// an apiKey scheme can only say query, header or cookie.
	switch ep.Method() {
	case "GET", "DELETE":
		req := map[string]any{"apiToken": []string{}}
		if ep.NeedsAuth() {
			req["authToken"] = []string{}
		}
		o["security"] = []any{req}
	}
	if op.body != nil {
		o["requestBody"] = op.body
	}
	responses := map[string]any{}
	if op.okStatus != "" {
		responses[op.okStatus] = map[string]any{
			"description": "Success.",
			"content":     map[string]any{"application/json": map[string]any{"schema": schemaRef(op.okSchema)}},
		}
	} else {
		responses["default"] = map[string]any{
			"description": "Response shape and success status: not shown in the spec (" + op.section + "). Every response is JSON (general rule 2).",
			"content":     map[string]any{"application/json": map[string]any{"schema": map[string]any{}}},
		}
	}
	for _, name := range op.errors {
		responses[errorStatus[name]] = map[string]any{"$ref": "#/components/responses/" + name}
	}
	o["responses"] = responses
	return o
}

// errorStatus is the HTTP status of each shared error response.
var errorStatus = map[string]string{
	"missing-token": "400", "write-400": "400", "files-400": "400",
	"invalid-token": "401", "write-401": "401",
	"not-found": "404", "delete-500": "500",
}

// errorResponses are the error answers of section 7, with the body shapes
// it gives: early errors (only message) and handler errors (status "1"
// and message). Where it gives neither, the schema accepts any JSON.
func errorResponses() map[string]any {
	body := func(doc string, schema map[string]any) map[string]any {
		return map[string]any{"description": doc,
			"content": map[string]any{"application/json": map[string]any{"schema": schema}}}
	}
	either := map[string]any{"anyOf": []any{schemaRef("error-early"), schemaRef("error-handler")}}
	return map[string]any{
		"missing-token": body("The API token is missing: an early error whose message says so (5.6, 7).", schemaRef("error-early")),
		"invalid-token": body("The API token is invalid: an early error (5.6, 7).", schemaRef("error-early")),
		"write-400":     body("The API token is missing (early error) or the input failed validation (handler error) (7).", either),
		"files-400": body("The API token is missing (early error), or the key contains .. or a null byte (4.11); "+
			"section 7 ties the latter to neither body shape.", either),
		"write-401": body("The API token is invalid (early error), or the authentication token is missing or invalid "+
			"(5.5): section 7 gives that 401 no body shape.", map[string]any{}),
		"not-found":  body("No resource has the key or username (7): a handler error.", schemaRef("error-handler")),
		"delete-500": body("The delete failed after the page was located (4.5): a handler error.", schemaRef("error-handler")),
	}
}

// securitySchemes are the two tokens of section 5 where GET and DELETE
// carry them.
func securitySchemes() map[string]any {
	return map[string]any{
		"apiToken": map[string]any{"type": "apiKey", "in": "query", "name": "token",
			"description": "API token, static for the whole installation, from the API plugin's settings; required on every request. " +
				"For POST and PUT it is the body field token instead (5.3)."},
		"authToken": map[string]any{"type": "apiKey", "in": "query", "name": "authentication",
			"description": "Authentication token of a user with the Administrator role, from the profile's Security section; " +
				"required on write endpoints and GET /api/settings. For POST and PUT it is the body field authentication instead (5.3, 5.4)."},
	}
}
