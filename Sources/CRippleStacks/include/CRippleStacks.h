// The calling thread's return addresses and the loaded image an address belongs
// to, for operator sites on Linux (Sources/Ripple/Debugging/OperatorSites.swift)
// and nothing else.
//
// Both go through the C library, which is safe while other threads load,
// unload or map files: `backtrace` unwinds with the binaries' unwind tables
// (`.eh_frame`), and `dl_iterate_phdr` holds the dynamic loader's lock while it
// lists the images. Nothing here reads memory the process may unmap meanwhile.
//
// On other platforms both functions find nothing (they return 0).

#ifndef RIPPLE_STACKS_H
#define RIPPLE_STACKS_H

#include <stddef.h>
#include <stdint.h>

/// Writes up to `capacity` return addresses of the calling thread into
/// `addresses`, innermost first, starting with the caller of this function
/// (its own frame, and a sanitizer's interceptor of `backtrace`, are left
/// out); returns how many were written.
int ripple_stack_capture(uintptr_t *addresses, int capacity);

/// Finds the loaded image whose segments contain `address`: writes its path
/// (nul-terminated, cut to `pathCapacity`; the running program's own path for
/// the main executable) and its load bias (what to subtract from an address to
/// get the address in the ELF file). Returns 1 if found, 0 otherwise.
int ripple_stack_image(uintptr_t address, char *path, size_t pathCapacity, uintptr_t *bias);

#endif
