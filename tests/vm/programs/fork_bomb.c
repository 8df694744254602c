/* Forks without end, every child burning CPU: contained (TLE or MLE),
 * and nothing of it left running after the judge is done. */
#include <unistd.h>
int main(void) {
    volatile unsigned long x = 0;
    for (;;) {
        fork();
        x++;
    }
}
