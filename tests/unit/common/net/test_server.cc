#include "tests/unit/common/net/test_server.h"

#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace ssl = boost::asio::ssl;
using boost::system::error_code;
using namespace std::chrono_literals;

namespace feedback::net::testing {
namespace {

void expect(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("test PKI: ") + what);
}

void addExtension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_nconf_nid(nullptr, &ctx, nid, value);
  expect(ext != nullptr, value);
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

// Self-signed CA when `issuer` is null, else a server certificate for `san`.
Cert makeCert(EVP_PKEY* key, X509* issuer, EVP_PKEY* issuer_key, const char* san) {
  static long serial = 1;
  Cert cert(X509_new(), &X509_free);
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial++);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 86400);
  X509_set_pubkey(cert.get(), key);
  const char* cn = issuer ? "test server" : "feedback test CA";
  X509_NAME_add_entry_by_txt(X509_get_subject_name(cert.get()), "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(cn), -1, -1, 0);
  X509* signer = issuer ? issuer : cert.get();
  X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
  if (!issuer) {
    addExtension(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE");
    addExtension(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
    addExtension(cert.get(), signer, NID_subject_key_identifier, "hash");
  } else {
    addExtension(cert.get(), signer, NID_basic_constraints, "CA:FALSE");
    addExtension(cert.get(), signer, NID_subject_alt_name, san);
    addExtension(cert.get(), signer, NID_ext_key_usage, "serverAuth");
  }
  expect(X509_sign(cert.get(), issuer ? issuer_key : key, EVP_sha256()) > 0, "sign");
  return cert;
}

Key newKey() {
  Key key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
  expect(key != nullptr, "key");
  return key;
}

}  // namespace

Pki::Pki()
    : ca_key(newKey()),
      server_key(newKey()),
      ca(makeCert(ca_key.get(), nullptr, nullptr, nullptr)),
      server(makeCert(server_key.get(), ca.get(), ca_key.get(), "IP:127.0.0.1,DNS:localhost")),
      wrong_name(makeCert(server_key.get(), ca.get(), ca_key.get(), "DNS:other.example")),
      dir(std::filesystem::temp_directory_path() /
          ("http_client_test_" + std::to_string(getpid()))),
      ca_file((dir / "ca.pem").string()),
      garbage_file((dir / "garbage.pem").string()) {
  std::filesystem::create_directories(dir);
  FILE* f = std::fopen(ca_file.c_str(), "w");
  expect(f != nullptr, "ca file");
  PEM_write_X509(f, ca.get());
  std::fclose(f);
  std::ofstream(garbage_file) << "not a certificate\n";
}

Pki::~Pki() {
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

Pki& pki() {
  static Pki instance;
  return instance;
}

std::unique_ptr<ssl::context> serverTls(X509* cert) {
  auto tls = std::make_unique<ssl::context>(ssl::context::tls_server);
  expect(SSL_CTX_use_certificate(tls->native_handle(), cert) == 1, "server certificate");
  expect(SSL_CTX_use_PrivateKey(tls->native_handle(), pki().server_key.get()) == 1, "server key");
  return tls;
}

TestServer::TestServer(std::unique_ptr<ssl::context> tls, Script script)
    : tls_(std::move(tls)),
      script_(std::move(script)),
      acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}) {
  port_ = acceptor_.local_endpoint().port();
  asio::co_spawn(io_, acceptLoop(), asio::detached);
  thread_ = std::thread([this] { io_.run(); });
}

TestServer::~TestServer() {
  io_.stop();
  thread_.join();
}

std::string TestServer::url(const std::string& path) const {
  return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_) + path;
}

int TestServer::accepted() const {
  std::lock_guard lock(mutex_);
  return accepted_;
}

std::vector<Seen> TestServer::seen() const {
  std::lock_guard lock(mutex_);
  return seen_;
}

asio::awaitable<void> TestServer::acceptLoop() {
  for (;;) {
    error_code ec;
    Tcp::socket socket =
        co_await acceptor_.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    int connection;
    {
      std::lock_guard lock(mutex_);
      connection = ++accepted_;
    }
    asio::co_spawn(io_, session(std::move(socket), connection), asio::detached);
  }
}

asio::awaitable<void> TestServer::session(Tcp::socket socket, int connection) {
  if (!tls_) {
    co_await serve(socket, connection);
    co_return;
  }
  ssl::stream<Tcp::socket> stream(std::move(socket), *tls_);
  error_code ec;
  co_await stream.async_handshake(ssl::stream_base::server,
                                  asio::redirect_error(asio::use_awaitable, ec));
  if (!ec) co_await serve(stream, connection);
}

// Ending a connection never sends a TLS close_notify: the stream just goes, as a crashing or
// impatient receiver's would.
template <class Stream>
asio::awaitable<void> TestServer::serve(Stream& stream, int connection) {
  boost::beast::flat_buffer buffer;
  error_code ec;
  auto token = asio::redirect_error(asio::use_awaitable, ec);
  for (int index = 0;; ++index) {
    http::request<http::string_body> request;
    co_await http::async_read(stream, buffer, request, token);
    if (ec) co_return;
    Reply reply = script_(record(request, connection), index);
    if (reply.kind == Reply::kClose) co_return;
    if (reply.kind == Reply::kSilent) {
      asio::steady_timer forever(io_, 60s);
      co_await forever.async_wait(token);
      co_return;
    }
    if (reply.kind == Reply::kRaw) {
      co_await asio::async_write(stream, asio::buffer(reply.raw), token);
      co_return;
    }
    http::response<http::string_body> response{static_cast<http::status>(reply.status), 11};
    for (const auto& [name, value] : reply.headers) response.set(name, value);
    response.body() = reply.body;
    response.keep_alive(true);
    response.prepare_payload();
    co_await http::async_write(stream, response, token);
    if (ec || reply.close_after) co_return;
  }
}

Seen TestServer::record(const http::request<http::string_body>& request, int connection) {
  Seen seen;
  seen.connection = connection;
  seen.method = std::string(request.method_string());
  seen.target = std::string(request.target());
  seen.body = request.body();
  for (const auto& field : request) {
    std::string name(field.name_string());
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    seen.headers[name] = std::string(field.value());
  }
  std::lock_guard lock(mutex_);
  seen_.push_back(seen);
  return seen;
}

Script answer(Reply reply) {
  return [reply](const Seen&, int) { return reply; };
}

}  // namespace feedback::net::testing
