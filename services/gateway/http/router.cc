#include "services/gateway/http/router.h"

#include "common/core/ids.h"
#include "common/core/names.h"

namespace feedback::gateway {
Method parseMethod(std::string_view m) {
  if (m == "GET") return Method::kGet;
  if (m == "POST") return Method::kPost;
  if (m == "PUT") return Method::kPut;
  if (m == "PATCH") return Method::kPatch;
  if (m == "DELETE") return Method::kDelete;
  return Method::kOther;
}

std::string_view methodName(Method m) {
  switch (m) {
    case Method::kGet:
      return "GET";
    case Method::kPost:
      return "POST";
    case Method::kPut:
      return "PUT";
    case Method::kPatch:
      return "PATCH";
    case Method::kDelete:
      return "DELETE";
    case Method::kOther:
      break;
  }
  return "OTHER";
}

Segment segmentKind(std::string_view s) {
  if (s == "{uuid}") return Segment::kUuid;
  if (s == "{slug}") return Segment::kSlug;
  if (s == "{field_key}") return Segment::kFieldKey;
  if (s == "{report_token}") return Segment::kReportToken;
  return Segment::kLiteral;
}

bool isValidParameter(Segment kind, std::string_view value) {
  switch (kind) {
    case Segment::kUuid:
      return isUuid(value);
    case Segment::kSlug:
      return isValidSlug(value);
    case Segment::kFieldKey:
      return isValidFieldKey(value);
    case Segment::kReportToken:
      return isReportToken(value);
    case Segment::kLiteral:
      break;
  }
  return false;
}

}  // namespace feedback::gateway
