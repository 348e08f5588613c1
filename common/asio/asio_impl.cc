// Boost.Asio and Boost.Beast are built in separate-compilation mode: their implementation is
// compiled here once instead of in every translation unit that includes them. Asio's SSL part
// has its own source, which separate compilation leaves out of the headers as well.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
