package lowcpu

import (
	"syscall"
	"unsafe"
)

// lower sets the calling thread's priority for level. Idle takes the
// policy SCHED_IDLE, which the kernel preempts at once whenever another
// thread wakes (a nice thread alone may run on to the end of its slice, a
// few milliseconds that a page waits), and nice 19; Low, nice 10. A
// failure leaves the thread as it was. A thread cannot get its priority
// back without privilege: it runs only the work it was lowered for.
func lower(level Level) {
	switch level {
	case Idle:
		const schedIdle = 5
		var param struct{ priority int32 } // sched_param: 0 for SCHED_IDLE
		_, _, _ = syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(syscall.Gettid()), schedIdle, uintptr(unsafe.Pointer(&param)))
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
	case Low:
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 10)
	default:
		panic("lowcpu: unknown level")
	}
}
