#ifndef FIELDRIG_CTESSERACT_SHIM_H
#define FIELDRIG_CTESSERACT_SHIM_H
// Tesseract's C API. Its pkg-config file is not used: it adds -larchive -lcurl, which pulls in a
// curl variant that is not installed at run time; linking "tesseract" alone is enough.
#include <tesseract/capi.h>
#endif
