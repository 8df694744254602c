/* Attack: read the judge's test data directly: list the repository's test
 * folders (@TESTDATA_DIR@, the one being graded, and /work/main/testdata)
 * and read an answer file, or the package folder (@REPO_DIR@/problems).
 * Success: a test folder could be listed or an answer read: exit 42. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
int main(void) {
    const char *dirs[] = {"@TESTDATA_DIR@/secret", "@TESTDATA_DIR@", "/work/main/testdata/mayan/secret",
                          "/work/main/testdata", "@REPO_DIR@/problems", "@REPO_DIR@"};
    for (int i = 0; i < 6; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d) continue;
        struct dirent *e;
        int entries = 0;
        while ((e = readdir(d))) entries += e->d_name[0] != '.';
        closedir(d);
        if (entries > 0) {
            fprintf(stderr, "listed %s\n", dirs[i]);
            return 42;
        }
    }
    const char *files[] = {"@TESTDATA_DIR@/secret/11.ans", "/work/main/testdata/mayan/secret/11.ans"};
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(files[i], "r");
        if (f && fgetc(f) != EOF) {
            fprintf(stderr, "read %s\n", files[i]);
            return 42;
        }
    }
    puts("-1");
    return 0;
}
