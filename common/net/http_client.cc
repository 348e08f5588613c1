#include "common/net/http_client.h"

#include <openssl/ssl.h>

#include <algorithm>
#include <array>
#include <boost/asio/post.hpp>
#include <charconv>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "common/core/ascii.h"
#include "common/net/http_exchange.h"

namespace asio = boost::asio;

namespace feedback::net {

ClientCore::ClientCore(asio::any_io_executor executor, HttpClientSettings s)
    : settings(std::move(s)),
      strand(asio::make_strand(std::move(executor))),
      tls(asio::ssl::context::tls_client),
      pool(settings.max_idle_per_host, settings.idle_timeout),
      resolver(settings.resolver_threads) {
  SSL_CTX_set_min_proto_version(tls.native_handle(), TLS1_2_VERSION);
  boost::system::error_code ec;
  // A host without a system store still trusts ca_bundle; the handshake reports the rest.
  tls.set_default_verify_paths(ec);
  if (!settings.ca_bundle.empty()) {
    tls.load_verify_file(settings.ca_bundle, ec);
    if (ec) {
      throw std::runtime_error("cannot load the CA bundle " + settings.ca_bundle + ": " +
                               ec.message());
    }
  }
}

HttpClient::HttpClient(asio::any_io_executor executor, HttpClientSettings settings)
    : core_(std::make_shared<ClientCore>(std::move(executor), std::move(settings))) {}

HttpClient::~HttpClient() {
  core_->pool.close();
  // A POST still waiting for its host's address is not told of it: it ends at its deadline.
  core_->resolver.stop();
}

void HttpClient::post(HttpRequest request, std::function<void(HttpResult)> done) {
  const auto started = std::chrono::steady_clock::now();
  asio::post(core_->strand, [core = core_, request = std::move(request), done = std::move(done),
                             started]() mutable {
    std::make_shared<HttpExchange>(std::move(core), std::move(request), std::move(done), started)
        ->start();
  });
}

std::size_t HttpClient::idleConnections() const {
  return core_->pool.size();
}

namespace {

// Far beyond any retry schedule, and small enough that callers can convert it to any unit.
constexpr std::int64_t kMaxRetryAfter = std::numeric_limits<std::int32_t>::max();

// A number's digits: at least one.
bool allDigits(std::string_view s) {
  return !s.empty() && allAsciiDigits(s);
}

int number(std::string_view digits) {
  int value = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return value;
}

int monthNumber(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kMonths = {
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (std::size_t i = 0; i < kMonths.size(); ++i) {
    if (name == kMonths[i]) return static_cast<int>(i) + 1;
  }
  return 0;
}

bool isWeekdayOrZone(std::string_view name) {
  for (std::string_view day : {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}) {
    if (name == day) return true;
  }
  for (std::string_view day :
       {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "GMT"}) {
    if (name == day) return true;
  }
  return false;
}

struct DateParts {
  int day = -1, month = 0, year = -1, hour = -1, minute = -1, second = -1;
};

bool addDatePart(std::string_view token, DateParts& d) {
  if (token.size() == 8 && token[2] == ':' && token[5] == ':' && d.hour < 0) {
    if (!allDigits(token.substr(0, 2)) || !allDigits(token.substr(3, 2)) ||
        !allDigits(token.substr(6, 2))) {
      return false;
    }
    d.hour = number(token.substr(0, 2));
    d.minute = number(token.substr(3, 2));
    d.second = number(token.substr(6, 2));
    return true;
  }
  if (allDigits(token) && token.size() <= 2 && d.day < 0) {
    d.day = number(token);
    return true;
  }
  if (allDigits(token) && (token.size() == 2 || token.size() == 4) && d.year < 0) {
    const int year = number(token);
    // RFC 850's two-digit years: RFC 9110 reads those more than 50 years ahead as past.
    d.year = token.size() == 4 ? year : year + (year < 70 ? 2000 : 1900);
    return true;
  }
  if (int month = monthNumber(token); month != 0 && d.month == 0) {
    d.month = month;
    return true;
  }
  return isWeekdayOrZone(token);
}

// IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT", RFC 850 "Sunday, 06-Nov-94 08:49:37 GMT" and
// asctime "Sun Nov  6 08:49:37 1994" differ in order and separators only.
std::optional<std::chrono::system_clock::time_point> parseHttpDate(std::string_view text) {
  DateParts d;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ' ' && text[i] != ',' && text[i] != '-') continue;
    if (i > start && !addDatePart(text.substr(start, i - start), d)) return std::nullopt;
    start = i + 1;
  }
  if (d.day < 0 || d.month == 0 || d.year < 0 || d.hour < 0) return std::nullopt;
  if (d.hour > 23 || d.minute > 59 || d.second > 60) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year(d.year),
                                         std::chrono::month(static_cast<unsigned>(d.month)),
                                         std::chrono::day(static_cast<unsigned>(d.day))};
  if (!date.ok()) return std::nullopt;
  return std::chrono::sys_days(date) + std::chrono::hours(d.hour) + std::chrono::minutes(d.minute) +
         std::chrono::seconds(d.second);
}

}  // namespace

std::optional<std::chrono::seconds> parseRetryAfter(std::string_view value,
                                                    std::chrono::system_clock::time_point now) {
  value = trim(value, kHttpWhitespace);
  if (allDigits(value)) {
    std::int64_t seconds = kMaxRetryAfter;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (ec != std::errc() || seconds > kMaxRetryAfter) seconds = kMaxRetryAfter;
    return std::chrono::seconds(seconds);
  }
  auto date = parseHttpDate(value);
  if (!date) return std::nullopt;
  auto left = std::chrono::ceil<std::chrono::seconds>(*date - now);
  return std::clamp(left, std::chrono::seconds(0), std::chrono::seconds(kMaxRetryAfter));
}

}  // namespace feedback::net
