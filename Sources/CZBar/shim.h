#ifndef FIELDRIG_CZBAR_SHIM_H
#define FIELDRIG_CZBAR_SHIM_H
#include <zbar.h>

/// zbar_fourcc is a macro; Swift cannot import it. Gray 8-bit frames are 'Y800'.
static inline unsigned long fieldrig_zbar_fourcc_y800(void) {
    return zbar_fourcc('Y', '8', '0', '0');
}
#endif
