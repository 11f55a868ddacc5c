#define _GNU_SOURCE
#include "CRippleStacks.h"

#if defined(__linux__)
#include <execinfo.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

// Enough for the operator's own frames and its caller's (OperatorSites asks
// for 24).
#define RIPPLE_STACK_MAXIMUM 64

__attribute__((noinline))
int ripple_stack_capture(uintptr_t *addresses, int capacity) {
    if (addresses == NULL || capacity <= 0) {
        return 0;
    }
    if (capacity > RIPPLE_STACK_MAXIMUM - 4) {
        capacity = RIPPLE_STACK_MAXIMUM - 4;
    }
    // Where this function returns to: the first frame kept. The frames before
    // it are this function's own and, in a sanitized build, the sanitizer's
    // interceptor of `backtrace` (ThreadSanitizer's is one frame more).
    uintptr_t caller = (uintptr_t)__builtin_return_address(0);
    void *frames[RIPPLE_STACK_MAXIMUM];
    int count = backtrace(frames, capacity + 4);
    int first = 0;
    while (first < count && (uintptr_t)frames[first] != caller) {
        first++;
    }
    if (first == count) {
        // Not found (an unwinder that reports differently): keep all but the
        // innermost, which is this function's.
        first = 1;
    }
    int kept = 0;
    for (int index = first; index < count && kept < capacity; index++) {
        addresses[kept++] = (uintptr_t)frames[index];
    }
    return kept;
}

struct ripple_image_query {
    uintptr_t address;
    char *path;
    size_t pathCapacity;
    uintptr_t bias;
    int found;
};

static int ripple_image_visit(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct ripple_image_query *query = data;
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD) {
            continue;
        }
        uintptr_t start = (uintptr_t)info->dlpi_addr + (uintptr_t)header->p_vaddr;
        if (query->address < start || query->address - start >= (uintptr_t)header->p_memsz) {
            continue;
        }
        query->bias = (uintptr_t)info->dlpi_addr;
        query->found = 1;
        // The name is only valid during the call: copied now. The main program
        // has an empty name.
        const char *name = info->dlpi_name;
        if (name != NULL && name[0] != '\0') {
            strncpy(query->path, name, query->pathCapacity - 1);
            query->path[query->pathCapacity - 1] = '\0';
        } else {
            query->path[0] = '\0';
        }
        return 1;
    }
    return 0;
}

int ripple_stack_image(uintptr_t address, char *path, size_t pathCapacity, uintptr_t *bias) {
    if (path == NULL || pathCapacity < 2 || bias == NULL) {
        return 0;
    }
    struct ripple_image_query query = { address, path, pathCapacity, 0, 0 };
    dl_iterate_phdr(ripple_image_visit, &query);
    if (!query.found) {
        return 0;
    }
    if (path[0] == '\0') {
        ssize_t length = readlink("/proc/self/exe", path, pathCapacity - 1);
        if (length <= 0) {
            return 0;
        }
        path[length] = '\0';
    }
    *bias = query.bias;
    return 1;
}

#else

int ripple_stack_capture(uintptr_t *addresses, int capacity) {
    (void)addresses;
    (void)capacity;
    return 0;
}

int ripple_stack_image(uintptr_t address, char *path, size_t pathCapacity, uintptr_t *bias) {
    (void)address;
    (void)path;
    (void)pathCapacity;
    (void)bias;
    return 0;
}

#endif
