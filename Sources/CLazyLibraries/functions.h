// The functions Relay calls in each library opened on demand, numbered: a function's number is
// its place in its library's table of addresses (relay_lazy_libraries.c). A function Swift code
// calls that is missing here is an undefined symbol when `relay` links; a wrong number is a
// compile-time error.
//
// Generated once from the calls in Sources/RelayActions; keep each list in order when adding.

#define GRAPHICS_FUNCTIONS(X) \
    X(0, cairo_create) \
    X(1, cairo_destroy) \
    X(2, cairo_fill) \
    X(3, cairo_get_source) \
    X(4, cairo_image_surface_create) \
    X(5, cairo_image_surface_create_from_png_stream) \
    X(6, cairo_image_surface_get_data) \
    X(7, cairo_image_surface_get_format) \
    X(8, cairo_image_surface_get_height) \
    X(9, cairo_image_surface_get_stride) \
    X(10, cairo_image_surface_get_width) \
    X(11, cairo_line_to) \
    X(12, cairo_move_to) \
    X(13, cairo_paint) \
    X(14, cairo_paint_with_alpha) \
    X(15, cairo_pattern_set_extend) \
    X(16, cairo_pattern_set_filter) \
    X(17, cairo_pdf_surface_create_for_stream) \
    X(18, cairo_pdf_surface_set_metadata) \
    X(19, cairo_pdf_surface_set_size) \
    X(20, cairo_rectangle) \
    X(21, cairo_restore) \
    X(22, cairo_rotate) \
    X(23, cairo_save) \
    X(24, cairo_scale) \
    X(25, cairo_set_line_width) \
    X(26, cairo_set_source_rgb) \
    X(27, cairo_set_source_rgba) \
    X(28, cairo_set_source_surface) \
    X(29, cairo_show_page) \
    X(30, cairo_status_to_string) \
    X(31, cairo_stroke) \
    X(32, cairo_surface_destroy) \
    X(33, cairo_surface_finish) \
    X(34, cairo_surface_flush) \
    X(35, cairo_surface_mark_dirty) \
    X(36, cairo_surface_status) \
    X(37, cairo_surface_write_to_png_stream) \
    X(38, cairo_translate) \
    X(39, g_bytes_new) \
    X(40, g_bytes_unref) \
    X(41, g_error_free) \
    X(42, g_free) \
    X(43, g_object_unref) \
    X(44, pango_cairo_create_layout) \
    X(45, pango_cairo_show_layout) \
    X(46, pango_cairo_show_layout_line) \
    X(47, pango_font_description_free) \
    X(48, pango_font_description_from_string) \
    X(49, pango_layout_get_extents) \
    X(50, pango_layout_get_iter) \
    X(51, pango_layout_iter_free) \
    X(52, pango_layout_iter_get_baseline) \
    X(53, pango_layout_iter_get_line_extents) \
    X(54, pango_layout_iter_get_line_readonly) \
    X(55, pango_layout_iter_next_line) \
    X(56, pango_layout_set_alignment) \
    X(57, pango_layout_set_font_description) \
    X(58, pango_layout_set_indent) \
    X(59, pango_layout_set_markup) \
    X(60, pango_layout_set_width) \
    X(61, pango_layout_set_wrap)

#define JPEG_FUNCTIONS(X) \
    X(0, tjCompress2) \
    X(1, tjDecompress2) \
    X(2, tjDecompressHeader3) \
    X(3, tjDestroy) \
    X(4, tjFree) \
    X(5, tjGetErrorStr2) \
    X(6, tjInitCompress) \
    X(7, tjInitDecompress)

#define MARKDOWN_FUNCTIONS(X) \
    X(0, cmark_find_syntax_extension) \
    X(1, cmark_gfm_core_extensions_ensure_registered) \
    X(2, cmark_gfm_extensions_get_table_alignments) \
    X(3, cmark_gfm_extensions_get_table_columns) \
    X(4, cmark_gfm_extensions_get_tasklist_item_checked) \
    X(5, cmark_node_first_child) \
    X(6, cmark_node_free) \
    X(7, cmark_node_get_fence_info) \
    X(8, cmark_node_get_heading_level) \
    X(9, cmark_node_get_list_start) \
    X(10, cmark_node_get_list_tight) \
    X(11, cmark_node_get_list_type) \
    X(12, cmark_node_get_literal) \
    X(13, cmark_node_get_title) \
    X(14, cmark_node_get_type) \
    X(15, cmark_node_get_type_string) \
    X(16, cmark_node_get_url) \
    X(17, cmark_node_next) \
    X(18, cmark_parser_attach_syntax_extension) \
    X(19, cmark_parser_feed) \
    X(20, cmark_parser_finish) \
    X(21, cmark_parser_free) \
    X(22, cmark_parser_new)

// libcurl's functions Foundation's URLSession calls (FoundationNetworking, linked in a release
// build for the MCP SDK's client parts, which Relay never uses): declared so that the link
// needs no libcurl at start; opened only if something ever did use them.
#define NETWORK_FUNCTIONS(X) \
    X(0, curl_easy_cleanup) \
    X(1, curl_easy_getinfo) \
    X(2, curl_easy_init) \
    X(3, curl_easy_pause) \
    X(4, curl_easy_setopt) \
    X(5, curl_easy_strerror) \
    X(6, curl_free) \
    X(7, curl_global_init) \
    X(8, curl_multi_add_handle) \
    X(9, curl_multi_assign) \
    X(10, curl_multi_cleanup) \
    X(11, curl_multi_info_read) \
    X(12, curl_multi_init) \
    X(13, curl_multi_remove_handle) \
    X(14, curl_multi_setopt) \
    X(15, curl_multi_socket_action) \
    X(16, curl_slist_append) \
    X(17, curl_slist_free_all) \
    X(18, curl_url) \
    X(19, curl_url_get) \
    X(20, curl_url_set) \
    X(21, curl_version) \
    X(22, curl_version_info)
