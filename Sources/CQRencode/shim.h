#ifndef FIELDRIG_CQRENCODE_SHIM_H
#define FIELDRIG_CQRENCODE_SHIM_H
// libqrencode makes the QR codes of asset tags and pairing codes (fieldrig tag make, the Mac's
// pairing card). Its API is plain C; nothing needs wrapping.
#include <qrencode.h>
#endif
