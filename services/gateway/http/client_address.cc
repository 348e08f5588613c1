#include "services/gateway/http/client_address.h"

#include <boost/asio/ip/address.hpp>
#include <charconv>
#include <stdexcept>

#include "common/core/ascii.h"

namespace feedback::gateway {
std::vector<std::string> splitList(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    auto comma = text.find(',');
    auto item = trim(text.substr(0, comma), kHttpWhitespace);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

std::optional<std::array<uint8_t, 16>> ClientAddresses::parse(std::string_view address) {
  if (address.size() > 2 && address.front() == '[' && address.back() == ']') {
    address = address.substr(1, address.size() - 2);
  }
  boost::system::error_code ec;
  auto parsed = boost::asio::ip::make_address(std::string(address), ec);
  if (ec) return std::nullopt;
  if (parsed.is_v4()) {
    return boost::asio::ip::make_address_v6(boost::asio::ip::v4_mapped, parsed.to_v4()).to_bytes();
  }
  return parsed.to_v6().to_bytes();
}

ClientAddresses::ClientAddresses(const std::vector<std::string>& trusted) {
  for (const auto& entry : trusted) {
    std::string_view text = entry;
    auto slash = text.find('/');
    auto bytes = parse(text.substr(0, slash));
    if (!bytes) throw std::invalid_argument("not an address or CIDR block: " + entry);
    Block block{*bytes, 128};
    if (slash != std::string_view::npos) {
      std::string_view digits = text.substr(slash + 1);
      int prefix = -1;
      auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
      const bool v4 = text.substr(0, slash).find(':') == std::string_view::npos;
      const int max = v4 ? 32 : 128;
      if (error != std::errc() || end != digits.data() + digits.size() || prefix < 0 ||
          prefix > max) {
        throw std::invalid_argument("not an address or CIDR block: " + entry);
      }
      block.prefix = v4 ? prefix + 96 : prefix;
    }
    trusted_.push_back(block);
  }
}

bool ClientAddresses::trusted(std::string_view address) const {
  if (trusted_.empty()) return false;
  auto bytes = parse(address);
  if (!bytes) return false;
  for (const auto& block : trusted_) {
    int bits = block.prefix;
    std::size_t i = 0;
    for (; bits >= 8; bits -= 8, ++i) {
      if ((*bytes)[i] != block.bytes[i]) break;
    }
    if (bits >= 8) continue;
    if (bits == 0) return true;
    const auto mask = static_cast<uint8_t>(0xFF << (8 - bits));
    if (((*bytes)[i] & mask) == (block.bytes[i] & mask)) return true;
  }
  return false;
}

std::string_view ClientAddresses::hostOf(const HttpRequest& request) const {
  std::string_view forwarded = request.header("x-forwarded-host");
  if (forwarded.empty() || !trusted(request.remote_address)) return request.header("host");
  if (auto comma = forwarded.rfind(','); comma != std::string_view::npos) {
    forwarded.remove_prefix(comma + 1);
  }
  forwarded = trim(forwarded, kHttpWhitespace);
  return forwarded.empty() ? request.header("host") : forwarded;
}

std::string ClientAddresses::of(const HttpRequest& request) const {
  std::string client = request.remote_address;
  if (!trusted(client)) return client;
  // From the nearest hop outwards, while each hop is a proxy we trust.
  std::vector<std::string> hops = splitList(request.header("x-forwarded-for"));
  while (!hops.empty() && trusted(client)) {
    if (!parse(hops.back())) break;  // a malformed entry: stop at the last proxy believed
    client = std::move(hops.back());
    hops.pop_back();
  }
  return client;
}

}  // namespace feedback::gateway
