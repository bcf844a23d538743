/// Why a reader could not be set up. The message says what to do.
public struct ReaderError: Error, Equatable, CustomStringConvertible {
    enum Kind: Equatable {
        case zbarUnavailable
        case tesseractDataMissing(language: String)
    }

    let kind: Kind

    public var description: String {
        switch kind {
        case .zbarUnavailable:
            return "the barcode reader (zbar) could not be created. Reinstall libzbar0 (CI/install-deps)."
        case .tesseractDataMissing(let language):
            return "the text reader (tesseract) found no '\(language)' language data. Install tesseract-ocr-\(language) (CI/install-deps)."
        }
    }
}
