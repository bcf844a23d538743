// The C interface of include/fieldrig_zxing.h over zxing-cpp 1.4.
#define ZX_USE_UTF8 1
#include "fieldrig_zxing.h"

#include <ZXing/ReadBarcode.h>

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

namespace {
using ZXing::BarcodeFormat;

const ZXing::BarcodeFormats matrixFormats =
    BarcodeFormat::DataMatrix | BarcodeFormat::PDF417 | BarcodeFormat::Aztec | BarcodeFormat::MicroQRCode;
const ZXing::BarcodeFormats linearFormats = BarcodeFormat::Codabar | BarcodeFormat::Code39 | BarcodeFormat::Code93 |
                                            BarcodeFormat::Code128 | BarcodeFormat::EAN8 | BarcodeFormat::EAN13 |
                                            BarcodeFormat::ITF | BarcodeFormat::UPCA | BarcodeFormat::UPCE;

ZXing::Results readFormats(const ZXing::ImageView &image, ZXing::BarcodeFormats formats, int most, bool harder = true) {
    ZXing::DecodeHints hints;
    hints.setFormats(formats);
    hints.setTryHarder(harder);
    hints.setTryRotate(harder);
    hints.setMaxNumberOfSymbols(most);
    return ZXing::ReadBarcodes(image, hints);
}
/// Where an assertion inside zxing-cpp on this thread goes back to, while it reads.
thread_local jmp_buf *zxingEscape = nullptr;
}  // namespace

// zxing-cpp 1.4 as Debian builds it has its assertions on, and a few frames of a hand-held
// label (a DataMatrix detector's edge that is no line) fail one: the whole process aborted. The
// program's own __assert_fail stands before the C library's (the dynamic linker binds the
// library's calls to it), and while zxing-cpp reads on this thread it goes back to the read,
// which reads nothing on that frame; what zxing-cpp allocated for the read is not freed. Any
// other failed assertion aborts, as the C library's does.
extern "C" void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function) noexcept {
    if (zxingEscape) longjmp(*zxingEscape, 1);
    fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, assertion);
    abort();
}

extern "C" int fieldrig_zxing_read(const unsigned char *gray, int width, int height, int stride, int which,
                                   fieldrig_zxing_symbol **out) {
    *out = nullptr;
    if (!gray || width <= 0 || height <= 0 || stride < width) return -1;
    jmp_buf escape;
    if (setjmp(escape) != 0) {
        zxingEscape = nullptr;
        return -1;
    }
    zxingEscape = &escape;
    struct Leaving {
        ~Leaving() { zxingEscape = nullptr; }
    } leaving;
    try {
        ZXing::ImageView image(gray, width, height, ZXing::ImageFormat::Lum, stride);
        bool every = which == FIELDRIG_ZXING_ALL;
        auto formats = which == FIELDRIG_ZXING_DATAMATRIX_ONLY ? ZXing::BarcodeFormats(BarcodeFormat::DataMatrix)
                       : every                                  ? matrixFormats | BarcodeFormat::QRCode
                                                                : matrixFormats;
        auto results = readFormats(image, formats, 0xFF, which != FIELDRIG_ZXING_DATAMATRIX_ONLY);
        if (every) {
            // zxing-cpp 1.4 as Debian builds it (assertions on) aborts when it compares two
            // readings of a linear code across rows of a noisy frame (Result::operator==, its
            // lineCount assertion); asking for one linear symbol never compares. zbar reads the
            // others.
            for (auto &r : readFormats(image, linearFormats, 1)) results.push_back(std::move(r));
            // DataBar, which zbar is not asked for (it "finds" DataBars in noise): one symbol, as
            // for the other linear codes, without trying harder (fewer rows, not turned); so the
            // barcode pass costs what it did with zbar's DataBar decoder in it.
            for (auto &r : readFormats(image, BarcodeFormat::DataBar | BarcodeFormat::DataBarExpanded, 1, false))
                results.push_back(std::move(r));
        }
        int count = 0;
        for (const auto &r : results) count += r.isValid() ? 1 : 0;
        if (count == 0) return 0;
        auto *symbols = static_cast<fieldrig_zxing_symbol *>(calloc((size_t)count, sizeof(fieldrig_zxing_symbol)));
        if (!symbols) return -1;
        int i = 0;
        for (const auto &r : results) {
            if (!r.isValid()) continue;
            fieldrig_zxing_symbol &s = symbols[i++];
            std::string text = r.text();
            s.text = strdup(text.c_str());
            s.format = ZXing::ToString(r.format());
            std::string identifier = r.symbologyIdentifier();
            strncpy(s.identifier, identifier.c_str(), sizeof s.identifier - 1);
            s.gs1 = r.contentType() == ZXing::ContentType::GS1;
            const auto &p = r.position();
            for (int k = 0; k < 4; k++) {
                s.x[k] = p[k].x;
                s.y[k] = p[k].y;
            }
        }
        *out = symbols;
        return count;
    } catch (const std::exception &) {
        return -1;
    }
}

extern "C" void fieldrig_zxing_free(fieldrig_zxing_symbol *symbols, int count) {
    if (!symbols) return;
    for (int i = 0; i < count; i++) free(symbols[i].text);
    free(symbols);
}
