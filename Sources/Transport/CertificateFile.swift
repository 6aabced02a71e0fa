internal import COpenSSL

/// A PEM file of certificate authorities, read with OpenSSL before libcurl is pointed at it: a
/// wrong file is then refused at start, naming itself, instead of failing every request with
/// libcurl's vague "problem with the SSL CA cert".
package enum CertificateFile {
    /// Why a file cannot serve as the certificate authorities of an https upstream.
    /// - Returns: the reason, naming the file; nil when it holds at least one PEM certificate.
    package static func problem(with path: String) -> String? {
        defer { ERR_clear_error() }
        guard let file = BIO_new_file(path, "r") else { return "\(path) cannot be opened" }
        defer { BIO_free(file) }
        var count = 0
        while let certificate = PEM_read_bio_X509(file, nil, nil, nil) {
            X509_free(certificate)
            count += 1
        }
        return count > 0 ? nil : "\(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
    }
}
