/* Allocates until malloc fails, then says so itself and exits 1, as a
 * careful contestant's program does: still MLE, not RE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    for (;;) {
        char *p = malloc(1 << 20);
        if (!p) {
            fprintf(stderr, "no memory left\n");
            return 1;
        }
        memset(p, 1, 1 << 20);
    }
}
