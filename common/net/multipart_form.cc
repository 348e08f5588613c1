#include "common/net/multipart_form.h"

#include "common/core/crypto.h"

namespace feedback::net {
namespace {

void appendQuoted(std::string& out, std::string_view text) {
  out += '"';
  for (char c : text) {
    if (c == '"') {
      out += "%22";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else {
      out += c;
    }
  }
  out += '"';
}

}  // namespace

MultipartForm::MultipartForm() : MultipartForm("feedback-" + crypto::randomBase62(32)) {}

MultipartForm::MultipartForm(std::string boundary) : boundary_(std::move(boundary)) {}

void MultipartForm::beginPart(std::string_view name) {
  body_ += "--";
  body_ += boundary_;
  body_ += "\r\nContent-Disposition: form-data; name=";
  appendQuoted(body_, name);
}

MultipartForm& MultipartForm::field(std::string_view name, std::string_view value) {
  beginPart(name);
  body_ += "\r\n\r\n";
  body_ += value;
  body_ += "\r\n";
  return *this;
}

MultipartForm& MultipartForm::file(std::string_view name, std::string_view file_name,
                                   std::string_view content_type, std::string_view content) {
  beginPart(name);
  body_ += "; filename=";
  appendQuoted(body_, file_name);
  body_ += "\r\nContent-Type: ";
  body_ += content_type;
  body_ += "\r\n\r\n";
  body_ += content;
  body_ += "\r\n";
  return *this;
}

std::string MultipartForm::contentType() const {
  return "multipart/form-data; boundary=" + boundary_;
}

std::string MultipartForm::take() {
  body_ += "--";
  body_ += boundary_;
  body_ += "--\r\n";
  std::string body = std::move(body_);
  body_.clear();
  return body;
}

}  // namespace feedback::net
