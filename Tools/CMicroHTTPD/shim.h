// GNU libmicrohttpd from Debian (libmicrohttpd-dev): the HTTP server of `objdb-inspect serve`.
// MHD_start_daemon takes its options as C varargs, which Swift cannot pass: these functions do.
// No feature macros here (see Tools/CEditLine/shim.h).
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// Starts a daemon on 127.0.0.1:`port` (0: a free port the kernel picks), a thread per
/// connection, at most `connection_limit` connections, each closed after `timeout_seconds` idle.
/// `completed` is called with `context` when a request ends, however it ends. NULL on failure.
static inline struct MHD_Daemon *objdb_mhd_start_loopback(
    uint16_t port, unsigned int connection_limit, unsigned int timeout_seconds,
    MHD_AccessHandlerCallback handler, void *context, MHD_RequestCompletedCallback completed) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC, port, NULL, NULL,
        handler, context,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_END);
}

/// The port the daemon listens on.
static inline uint16_t objdb_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The socket of a connection, or -1.
static inline int objdb_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// A response holding a copy of `size` bytes at `bytes`.
static inline struct MHD_Response *objdb_mhd_response_copying(const void *bytes, size_t size) {
    return MHD_create_response_from_buffer(size, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}

/// A response of unknown length whose body `reader` produces (chunked in HTTP/1.1).
static inline struct MHD_Response *objdb_mhd_response_streaming(
    size_t block_size, MHD_ContentReaderCallback reader, void *context, MHD_ContentReaderFreeCallback free) {
    return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, block_size, reader, context, free);
}

/// What a content reader returns at the end of its body.
static inline ssize_t objdb_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
/// What a content reader returns when its body cannot go on.
static inline ssize_t objdb_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

// MHD's enums are declared with an attribute Swift does not import as named constants.

/// MHD_YES and MHD_NO.
static inline enum MHD_Result objdb_mhd_yes(void) { return MHD_YES; }
static inline enum MHD_Result objdb_mhd_no(void) { return MHD_NO; }

/// A request header (case-insensitive), a query argument (percent-decoded) or a cookie, or NULL.
static inline const char *objdb_mhd_header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}
static inline const char *objdb_mhd_argument(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, name);
}
static inline const char *objdb_mhd_cookie(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_COOKIE_KIND, name);
}
