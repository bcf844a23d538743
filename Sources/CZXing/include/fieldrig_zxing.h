#ifndef FIELDRIG_ZXING_H
#define FIELDRIG_ZXING_H
// A C interface of our own over zxing-cpp (C++ only), for the Swift reader.
#ifdef __cplusplus
extern "C" {
#endif

/// One symbol zxing-cpp decoded: its text (UTF-8; GS1 element strings keep FNC1 as the GS
/// character, 0x1D), its format's name, its symbology identifier ("]d2" for GS1 DataMatrix),
/// whether its content is GS1, and its four corners.
typedef struct {
    char *text;
    const char *format;
    char identifier[8];
    int gs1;
    int x[4], y[4];
} fieldrig_zxing_symbol;

/// The formats zbar does not read: DataMatrix, PDF417, Aztec, Micro QR.
#define FIELDRIG_ZXING_MATRIX_ONLY 1
/// Every format zxing-cpp reads.
#define FIELDRIG_ZXING_ALL 2
/// DataMatrix alone.
#define FIELDRIG_ZXING_DATAMATRIX_ONLY 3

/// Decodes every symbol of `which` in an 8-bit gray image (`stride` bytes a row). Returns how
/// many were found (0 or more) and sets `*out` to an array to release with fieldrig_zxing_free,
/// or -1 when zxing-cpp failed (nothing to free).
int fieldrig_zxing_read(const unsigned char *gray, int width, int height, int stride, int which, fieldrig_zxing_symbol **out);

void fieldrig_zxing_free(fieldrig_zxing_symbol *symbols, int count);

#ifdef __cplusplus
}
#endif
#endif
