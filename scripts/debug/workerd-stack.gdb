# Native stacks of every thread of a running workerd, and the JS stack of the isolate on the
# thread gdb stops in (written to /tmp/workerd-js-stack.txt): for a workerd spinning at 100% CPU.
# gdb -p <pid> -batch -x scripts/debug/workerd-stack.gdb   (find the busy thread with top -H -p <pid>)
set pagination off
set confirm off
set unwindonsignal on
thread apply all bt 30
set $iso = (void*) _ZN2v87Isolate10GetCurrentEv()
print $iso
if $iso != 0
  set $f = (void*) fopen("/tmp/workerd-js-stack.txt", "w")
  call (void) _ZN2v88internal7Isolate10PrintStackEP8_IO_FILENS1_14PrintStackModeE($iso, $f, 1)
  call (int) fflush($f)
  call (int) fclose($f)
end
detach
quit
