// Everything is in the header (`static inline`, so that Swift inlines each
// operation) but the recording flag's storage.
#include "CRippleAtomics.h"

uint64_t ripple_records_operator_sites = 0;
