#include "desk/plugins/plugin_resources.h"

#include "core/encode/utf8.h"
#include "desk/plugins/bounded_file.h"

namespace nd_desk {

nlohmann::json plugin_resource_list(const PluginSet& set)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& plugin : set.loaded)
        for (const auto& r : plugin.resources)
            out.push_back({{"uri", r.uri}, {"name", r.path.substr(r.path.rfind('/') + 1)}, {"mimeType", r.mime},
                {"description", r.description}});
    return out;
}

nd_mcp::ResourceText read_plugin_resource(const PluginSet& set, std::string_view uri)
{
    nd_mcp::ResourceText out;
    const PluginResource* resource = set.find_resource(uri);
    if (!resource)
        return out;
    out.found = true;
    out.mime_type = resource->mime;
    auto text = read_bounded_file(resource->path, PLUGIN_RESOURCE_MAX_BYTES);
    if (!text)
        out.error = "the resource's file " + resource->path + " " + text.error().message;
    else if (!nd_core::valid_utf8(*text))
        out.error = "the resource's file " + resource->path + " is not UTF-8 text";
    else
        out.text = std::move(text).value();
    return out;
}

} // namespace nd_desk
