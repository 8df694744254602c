/* Not a submission: the program an attacker plants in a shared compile
 * cache under the name the judge caches some submission as (see
 * tests/attacks.rs, planted_cache_binaries_are_never_run).
 * If the judge runs it instead of compiling the submission, it leaves the
 * marker @MARKER@ (when it can reach it) and exits 42. */
#include <stdio.h>
int main(void) {
    FILE *f = fopen("@MARKER@", "w");
    if (f) fclose(f);
    return 42;
}
