// The floor of judging: starts a command once per input, with standard input and output redirected to files, and
// waits for it, doing nothing else. Any judge does at least this much per test.
//
//   floor LIST OUTPUT COMMAND [ARG...]
//
// LIST holds one input path per line; each run's output goes to OUTPUT (truncated every time).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: floor LIST OUTPUT COMMAND [ARG...]\n");
        return 2;
    }
    FILE *list = fopen(argv[1], "r");
    if (!list) {
        perror(argv[1]);
        return 2;
    }
    char *line = NULL;
    size_t size = 0;
    ssize_t length;
    int failed = 0;
    while ((length = getline(&line, &size, list)) > 0) {
        if (line[length - 1] == '\n') line[length - 1] = '\0';
        pid_t pid = fork();
        if (pid == 0) {
            int in = open(line, O_RDONLY);
            int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0) _exit(127);
            execvp(argv[3], argv + 3);
            _exit(127);
        }
        int status;
        if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed++;
    }
    free(line);
    fclose(list);
    if (failed) fprintf(stderr, "floor: %d runs failed\n", failed);
    return failed ? 1 : 0;
}
