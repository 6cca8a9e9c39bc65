package autoplay

import (
	"syscall"
	"unsafe"
)

// yieldToPages gives the calling thread the lowest priority: the policy
// SCHED_IDLE, which the kernel preempts at once whenever a thread of the
// site's wakes (a nice thread alone may run on to the end of its slice, a
// few milliseconds that a page waits), and nice 19. So a search takes only
// the time the site's pages leave. A failure leaves the thread as it was.
// A thread cannot get its priority back without privilege: it runs
// searches only (lowThread).
func yieldToPages() {
	const schedIdle = 5
	var param struct{ priority int32 } // sched_param: 0 for SCHED_IDLE
	_, _, _ = syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(syscall.Gettid()), schedIdle, uintptr(unsafe.Pointer(&param)))
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}
