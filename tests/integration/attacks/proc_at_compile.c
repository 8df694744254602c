/* Attack: embed a machine-wide file of /proc at compile time. A run on a
 * hidden test moves the machine's counters (processes forked in
 * /proc/stat, huge pages faulted in /proc/vmstat, pages locked...), and
 * the contestant's next compilation, whose messages are shown under every
 * feedback, reads them back: bits of the hidden input. The test fills in
 * MJ_PROC_FILE with each machine-wide file in turn; the assembler's
 * `.incbin` embeds it (gcc's `#include` and `.include` open it the same
 * way, as the sandboxed compiler's user). Success: the file was read with
 * something in it, exit 42. A file the compiler cannot read does not
 * compile (the attack failed). */
#include <stdio.h>
__asm__(".section .rodata\n"
        ".global mj_proc_start\nmj_proc_start:\n"
        ".incbin \"MJ_PROC_FILE\"\n"
        ".global mj_proc_end\nmj_proc_end:\n"
        ".byte 0\n"
        ".previous\n");
extern const char mj_proc_start[], mj_proc_end[];
int main(void) {
    long n = (long)(mj_proc_end - mj_proc_start);
    if (n > 0) {
        fprintf(stderr, "MJ_PROC_FILE: %ld bytes embedded at compile time\n", n);
        return 42;
    }
    puts("-1");
    return 0;
}
