// What isolate costs per test, run the way contest systems run it: the floor's loop (floor.c), with each run made
// by isolate in its box. The input is copied into the box, and the program reads and writes files there, named by
// --stdin and --stdout, under a time limit, a memory limit and one process.
//
//   isolate_loop reuse|fresh LIST PROGRAM ISOLATE BOX
//
// reuse: one box, made (isolate --init) and the program copied into it once, every test run in it, removed at the
//        end; fresh: for every test a new box, the program copied into it, the run, and the box removed
//        (init, run, cleanup). BOX is the box's folder (box_root/0/box, for box 0 of ISOLATE's configuration).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *isolate;
static const char *box;

// Runs ISOLATE with the given options, its standard output dropped; 0 when it ended with exit code 0.
static int isolate_with(char *const options[]) {
    char *argv[16] = {(char *)isolate};
    int n = 1;
    for (; options[n - 1]; n++) argv[n] = options[n - 1];
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, 1) < 0) _exit(127);
        execv(isolate, argv);
        _exit(127);
    }
    int status;
    return pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

// Copies a file into the box under NAME, with MODE.
static int copy_in(const char *from, const char *name, mode_t mode) {
    char to[4096];
    snprintf(to, sizeof to, "%s/%s", box, name);
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode);
    struct stat st;
    int failed = in < 0 || out < 0 || fstat(in, &st) < 0;
    for (off_t left = failed ? 0 : st.st_size; left > 0;) {
        ssize_t sent = sendfile(out, in, NULL, left);
        if (sent <= 0) {
            failed = 1;
            break;
        }
        left -= sent;
    }
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    return failed;
}

static int init(const char *program) {
    isolate_with((char *[]){"--cleanup", NULL});
    return isolate_with((char *[]){"--init", NULL}) || copy_in(program, "main", 0755);
}

int main(int argc, char **argv) {
    if (argc != 6 || (strcmp(argv[1], "reuse") && strcmp(argv[1], "fresh"))) {
        fprintf(stderr, "usage: isolate_loop reuse|fresh LIST PROGRAM ISOLATE BOX\n");
        return 2;
    }
    int fresh = !strcmp(argv[1], "fresh");
    const char *program = argv[3];
    isolate = argv[4];
    box = argv[5];
    FILE *list = fopen(argv[2], "r");
    if (!list) {
        perror(argv[2]);
        return 2;
    }
    if (!fresh && init(program)) {
        fprintf(stderr, "isolate_loop: the box could not be made\n");
        return 1;
    }
    char *line = NULL;
    size_t size = 0;
    ssize_t length;
    int failed = 0;
    while ((length = getline(&line, &size, list)) > 0) {
        if (line[length - 1] == '\n') line[length - 1] = '\0';
        if (fresh && init(program)) {
            failed++;
            continue;
        }
        if (copy_in(line, "input", 0644) ||
            isolate_with((char *[]){"--time=2", "--wall-time=4", "--mem=262144", "--processes=1", "--stdin=input",
                                    "--stdout=output", "--silent", "--run", "--", "./main", NULL}))
            failed++;
        if (fresh) isolate_with((char *[]){"--cleanup", NULL});
    }
    if (!fresh) isolate_with((char *[]){"--cleanup", NULL});
    free(line);
    fclose(list);
    if (failed) fprintf(stderr, "isolate_loop: %d runs failed\n", failed);
    return failed ? 1 : 0;
}
