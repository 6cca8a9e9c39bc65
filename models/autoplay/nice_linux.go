package autoplay

import "syscall"

// yieldToPages gives the calling thread the lowest priority (nice 19), so
// that a search takes only the time the site's pages leave. A failure
// leaves the thread as it was. A thread cannot get its priority back
// without privilege: it runs searches only (lowThread).
func yieldToPages() { _ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19) }
