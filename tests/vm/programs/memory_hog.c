/* Touches 512 MiB, four times the problem's 128 MiB, in one mapping (huge
 * pages where the kernel gives them: few faults even on an emulated CPU):
 * MLE. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
int main(void) {
    size_t size = (size_t)512 << 20;
    char *p = mmap(0, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 3;
    madvise(p, size, MADV_HUGEPAGE);
    memset(p, 1, size);
    return 0;
}
