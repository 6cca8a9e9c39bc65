package views

// curl is the command that asks the API at base for path with a token.
func curl(base, path string) string {
	return `curl -H "Authorization: Bearer $TOKEN" ` + base + path
}

// curlPost is the command that posts body, JSON, to the API at base.
func curlPost(base, path, body string) string {
	return `curl -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \` + "\n  -d '" + body + `' \` + "\n  " + base + path
}
