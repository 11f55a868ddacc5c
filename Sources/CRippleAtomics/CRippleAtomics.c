// Everything is in the header (`static inline`, so that Swift inlines each
// operation); SwiftPM needs one source file to build the target.
#include "CRippleAtomics.h"
