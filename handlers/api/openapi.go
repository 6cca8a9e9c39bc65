package api

import _ "embed"

// OpenAPI is the API's OpenAPI 3.1 document, served at
// /api/v1/openapi.json: every route of the API is in it, and every path
// in it is a route (handlers' TestOpenAPIMatchesRoutes).
//
//go:embed openapi.json
var OpenAPI []byte
