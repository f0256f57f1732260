// objdb-child-rusage RESULT PROGRAM [ARGUMENT...]
//
// Runs PROGRAM, waits for it, and writes "<exit status> <wall seconds> <peak RSS in KiB>" to the
// file RESULT: the child's own peak resident memory, from wait4's rusage.
//
// A child spawned straight from a large process (a benchmark, a test runner) reports that
// process's peak as its own: Linux keeps the peak of the memory image an exec replaces. This
// helper is small, so what it passes on is about a megabyte, and the figure is the child's.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: objdb-child-rusage RESULT PROGRAM [ARGUMENT...]\n");
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = fork();
    if (pid < 0) {
        perror("objdb-child-rusage: fork");
        return 1;
    }
    if (pid == 0) {
        execv(argv[2], argv + 2);
        perror("objdb-child-rusage: exec");
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            perror("objdb-child-rusage: wait4");
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    FILE *result = fopen(argv[1], "w");
    if (result == NULL) {
        perror("objdb-child-rusage: result file");
        return 1;
    }
    fprintf(result, "%d %.6f %ld\n", code, seconds, usage.ru_maxrss);
    fclose(result);
    return 0;
}
