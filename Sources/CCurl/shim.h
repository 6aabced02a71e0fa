/* libcurl through a system-library target. curl_easy_setopt and curl_easy_getinfo are
 * variadic, which Swift cannot call, so typed inline wrappers stand in front of them. */
#include <curl/curl.h>

typedef size_t (*accord_curl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode accord_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode accord_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode accord_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode accord_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode accord_curl_setopt_write(CURL *handle, CURLoption option, accord_curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}
/* Progress: libcurl calls it often while bytes flow and about once a second while none do; a
 * non-zero return aborts the transfer (CURLE_ABORTED_BY_CALLBACK). */
typedef int (*accord_curl_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
static inline CURLcode accord_curl_setopt_xferinfo(CURL *handle, accord_curl_xferinfo_callback value, void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_XFERINFODATA, context);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    return code;
}
static inline CURLcode accord_curl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
static inline CURLcode accord_curl_size_uploaded(CURL *handle, curl_off_t *bytes) {
    return curl_easy_getinfo(handle, CURLINFO_SIZE_UPLOAD_T, bytes);
}

/* The multi interface driven by the caller's own poll: curl_multi_setopt is variadic too. */
typedef int (*accord_curl_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *context, void *socketContext);
typedef int (*accord_curl_timer_callback)(CURLM *multi, long timeout, void *context);

static inline CURLMcode accord_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}
static inline CURLMcode accord_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
static inline CURLMcode accord_curl_multi_setopt_socket(CURLM *multi, accord_curl_socket_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}
static inline CURLMcode accord_curl_multi_setopt_timer(CURLM *multi, accord_curl_timer_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}
/* The sockets libcurl opens for connections, reported as they are made and as they close. */
typedef int (*accord_curl_sockopt_callback)(void *context, curl_socket_t socket, curlsocktype purpose);
typedef int (*accord_curl_closesocket_callback)(void *context, curl_socket_t socket);

static inline CURLcode accord_curl_setopt_sockopt(CURL *handle, accord_curl_sockopt_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, value);
}
static inline CURLcode accord_curl_setopt_closesocket(CURL *handle, accord_curl_closesocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, value);
}
/* The result of a finished transfer, read from the message's union. */
static inline CURLcode accord_curl_message_result(CURLMsg *message) {
    return message->data.result;
}
