#pragma once
// A multipart/form-data body (RFC 7578), as speech servers take a recording with its
// settings. Names and file names are quoted the way browsers quote them (WHATWG HTML: '"',
// CR and LF percent-encoded), so that no value can end its part early.

#include <string>
#include <string_view>

namespace feedback::net {

class MultipartForm {
 public:
  // A random boundary.
  MultipartForm();
  // A given one (tests); it must not occur in any value.
  explicit MultipartForm(std::string boundary);

  MultipartForm& field(std::string_view name, std::string_view value);
  MultipartForm& file(std::string_view name, std::string_view file_name,
                      std::string_view content_type, std::string_view content);

  // The Content-Type header's value, with the boundary.
  std::string contentType() const;
  // The whole body, closed; the form is empty afterwards.
  std::string take();

 private:
  void beginPart(std::string_view name);
  std::string boundary_;
  std::string body_;
};

}  // namespace feedback::net
