/* Attack: outlive the judge. Double fork with setsid: a detached grandchild
 * (named @TOKEN@dd with prctl, so the test can find it) that closes its
 * streams, leaves the work folder and sleeps forever; the main process
 * sleeps too, so the test can kill the judge (SIGKILL) mid-run.
 * Success is seen from outside: a process named @TOKEN@dd still exists
 * some seconds after the judge was killed (checked by the test). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>
int main(void) {
    prctl(PR_SET_NAME, "@TOKEN@dd");
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            signal(SIGHUP, SIG_IGN);
            signal(SIGTERM, SIG_IGN);
            signal(SIGINT, SIG_IGN);
            signal(SIGPIPE, SIG_IGN);
            close(0); close(1); close(2);
            chdir("/");
            for (;;) pause();
        }
        _exit(0);
    }
    sleep(60);
    puts("-1");
    return 0;
}
