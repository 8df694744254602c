/* Attack: read the host's files: /etc/shadow, /etc/passwd, /etc/group,
 * /etc/hostname, /etc/hosts, /etc/machine-id, an SSH host key, root's shell
 * history, and the listings of /root, /home, /work, /var/lib (a minimal
 * sandbox root has none of them; hidden entries such as a language's
 * /root/.rustup are not counted).
 * Success: any of them could be read or listed (non-empty): exit 42. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
int main(void) {
    const char *files[] = {"/etc/shadow", "/etc/passwd", "/etc/group", "/etc/hostname", "/etc/hosts",
                           "/etc/machine-id", "/etc/ssh/ssh_host_ed25519_key", "/root/.bash_history"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        FILE *f = fopen(files[i], "r");
        if (f && fgetc(f) != EOF) {
            fprintf(stderr, "read %s\n", files[i]);
            return 42;
        }
        if (f) fclose(f);
    }
    const char *dirs[] = {"/root", "/home", "/work", "/var/lib"};
    for (int i = 0; i < 4; i++) {
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
    puts("-1");
    return 0;
}
