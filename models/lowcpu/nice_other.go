//go:build !linux

package lowcpu

// lower is the Linux build's; elsewhere the threads run at the site's own
// priority.
func lower(Level) {}
