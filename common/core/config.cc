#include "common/core/config.h"

#include <arpa/inet.h>

#include <charconv>
#include <cstdlib>
#include <sstream>

#include "common/core/json_writer.h"
#include "common/core/secret_box.h"

namespace feedback {
namespace {

bool parseInt(std::string_view text, long long& out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

Env::Env(Lookup lookup) : lookup_(lookup ? std::move(lookup) : Lookup(&::getenv)) {}

Env Env::empty() {
  return Env([](const char*) -> const char* { return nullptr; });
}

const char* Env::raw(const char* name) const {
  const char* value = lookup_(name);
  return (value && *value) ? value : nullptr;
}

std::string Env::valueOr(const char* name, const std::string& fallback) const {
  const char* value = raw(name);
  return value ? std::string(value) : fallback;
}

void Env::note(const char* name, std::string fallback, std::string accepted, const About& about,
               bool required) {
  for (const auto& known : settings_) {
    if (known.name == name) return;
  }
  if (about.computed_default) fallback = about.computed_default;
  if (about.accepted) accepted = about.accepted;
  settings_.push_back({name, std::move(fallback), std::move(accepted), about.meaning, required});
}

std::string Env::text(const char* name, std::string fallback, About about) {
  note(name, fallback, "text", about);
  const char* value = raw(name);
  return value ? std::string(value) : std::move(fallback);
}

std::string Env::requiredText(const char* name, About about) {
  note(name, "", "text", about, true);
  const char* value = raw(name);
  if (!value) {
    problems_.push_back(std::string(name) + " is required");
    return {};
  }
  return value;
}

std::string Env::choice(const char* name, std::string fallback,
                        std::initializer_list<std::string_view> choices, About about) {
  std::string listed;
  for (auto c : choices) listed += (listed.empty() ? "" : ", ") + std::string(c);
  note(name, fallback, "one of " + listed, about);
  const char* value = raw(name);
  if (!value) return fallback;
  for (auto c : choices) {
    if (c == value) return value;
  }
  problems_.push_back(std::string(name) + "='" + value + "' must be one of " + listed);
  return fallback;
}

int Env::integer(const char* name, int fallback, int min, int max, About about) {
  const std::string range = "from " + std::to_string(min) + " to " + std::to_string(max);
  note(name, std::to_string(fallback), "an integer " + range, about);
  const char* value = raw(name);
  if (!value) return fallback;
  long long parsed = 0;
  if (!parseInt(value, parsed) || parsed < min || parsed > max) {
    problems_.push_back(std::string(name) + "='" + value + "' must be an integer " + range);
    return fallback;
  }
  return static_cast<int>(parsed);
}

double Env::number(const char* name, double fallback, double min, double max, About about) {
  auto shortest = [](double x) {
    std::ostringstream out;
    out << x;
    return out.str();
  };
  const std::string range = "from " + shortest(min) + " to " + shortest(max);
  note(name, shortest(fallback), "a number " + range, about);
  const char* value = raw(name);
  if (!value) return fallback;
  char* end = nullptr;
  double parsed = std::strtod(value, &end);
  if (end == value || *end != '\0' || !(parsed >= min && parsed <= max)) {
    problems_.push_back(std::string(name) + "='" + value + "' must be a number " + range);
    return fallback;
  }
  return parsed;
}

bool Env::boolean(const char* name, bool fallback, About about) {
  note(name, fallback ? "true" : "false", "true or false (also 1/0, yes/no)", about);
  const char* value = raw(name);
  if (!value) return fallback;
  std::string v = value;
  if (v == "true" || v == "1" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "no") return false;
  problems_.push_back(std::string(name) + "='" + v + "' must be true or false");
  return fallback;
}

bool parseHostPort(const std::string& text, HostPort& out) {
  auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  long long port = 0;
  if (!parseInt(std::string_view(text).substr(colon + 1), port) || port < 1 || port > 65535) {
    return false;
  }
  out.host = text.substr(0, colon);
  out.port = static_cast<int>(port);
  return true;
}

HostPort Env::address(const char* name, const std::string& fallback, About about) {
  note(name, fallback, "host:port", about);
  std::string value = valueOr(name, fallback);
  HostPort out;
  if (!parseHostPort(value, out)) {
    problems_.push_back(std::string(name) + "='" + value + "' must be host:port");
  }
  return out;
}

bool parseGrpcTarget(const std::string& text, std::string& out) {
  std::vector<HostPort> peers;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    HostPort peer;
    if (!parseHostPort(text.substr(start, comma - start), peer)) return false;
    peers.push_back(std::move(peer));
    start = comma + 1;
  }
  if (peers.size() == 1) {
    out = "dns:///" + text;
    return true;
  }
  out = "ipv4:";
  for (std::size_t i = 0; i < peers.size(); ++i) {
    in_addr ignored{};
    if (inet_pton(AF_INET, peers[i].host.c_str(), &ignored) != 1) return false;
    out += (i ? "," : "") + peers[i].host + ":" + std::to_string(peers[i].port);
  }
  return true;
}

std::string Env::grpcTarget(const char* name, const std::string& fallback, About about) {
  note(name, fallback, "host:port, or IPv4 ip:port pairs separated by commas", about);
  std::string value = valueOr(name, fallback);
  std::string target;
  if (!parseGrpcTarget(value, target)) {
    problems_.push_back(std::string(name) + "='" + value +
                        "' must be host:port, or IPv4 host:port pairs separated by commas");
  }
  return target;
}

HostPort Env::redisUrl(const char* name, const std::string& fallback, About about) {
  note(name, fallback, "redis://host:port[/db]", about);
  std::string value = valueOr(name, fallback);
  constexpr std::string_view kScheme = "redis://";
  HostPort out;
  std::string rest = value.rfind(kScheme, 0) == 0 ? value.substr(kScheme.size()) : "";
  if (auto slash = rest.find('/'); slash != std::string::npos) rest.resize(slash);
  if (rest.empty() || !parseHostPort(rest, out)) {
    problems_.push_back(std::string(name) + "='" + value + "' must be redis://host:port");
  }
  return out;
}

void Env::check() const {
  if (problems_.empty()) return;
  std::string message = "invalid configuration:";
  for (const auto& p : problems_) message += "\n  " + p;
  throw ConfigError(message);
}

std::string Env::settingsJson() const {
  std::string out;
  JsonWriter json(out);
  json.beginArray();
  for (const auto& s : settings_) {
    json.beginObject()
        .field("name", s.name)
        .field("default", s.fallback)
        .field("accepted", s.accepted)
        .field("meaning", s.meaning)
        .field("required", s.required)
        .endObject();
  }
  json.endArray();
  return out;
}

bool asksForSettings(int argc, char** argv) {
  return argc > 1 && std::string_view(argv[1]) == "--settings";
}

std::string secretsKey(Env& env) {
  std::string key = env.requiredText(
      "SECRETS_KEY", {.meaning = "the same in every process: seals webhook secrets at rest "
                                 "(AES-256-GCM) and signs media addresses",
                      .accepted = "base64 of 32 random bytes"});
  if (!key.empty() && !SecretBox::fromBase64Key(key)) {
    env.problem("SECRETS_KEY must be base64 of 32 bytes");
  }
  return key;
}

std::string publicScheme(Env& env) {
  return env.choice("PUBLIC_SCHEME", "https", {"http", "https"},
                    {"the scheme of the public addresses it writes: a link's public_url, "
                     "media addresses"});
}

}  // namespace feedback
