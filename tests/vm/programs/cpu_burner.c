/* Computes forever: TLE on CPU time. */
int main(void) {
    volatile unsigned long x = 0;
    for (;;) x++;
}
