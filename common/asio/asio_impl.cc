// Boost.Asio and Boost.Beast are built in separate-compilation mode: their implementation is
// compiled here once instead of in every translation unit that includes them.
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
