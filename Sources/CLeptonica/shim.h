#ifndef FIELDRIG_CLEPTONICA_SHIM_H
#define FIELDRIG_CLEPTONICA_SHIM_H
#include <leptonica/allheaders.h>

/// pixDestroy takes a PIX** and nulls it; this takes the pointer by value so Swift can release
/// a handle it owns without juggling an inout pointer.
static inline void fieldrig_pix_release(PIX *pix) {
    PIX *p = pix;
    pixDestroy(&p);
}

/// Same for a bitmap font.
static inline void fieldrig_bmf_release(L_BMF *bmf) {
    L_BMF *b = bmf;
    bmfDestroy(&b);
}

/// Same for a box.
static inline void fieldrig_box_release(BOX *box) {
    BOX *b = box;
    boxDestroy(&b);
}
#endif
