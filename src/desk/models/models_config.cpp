#include "desk/models/models_config.h"

namespace nd_desk {

std::string_view role_name(ModelRole role)
{
    switch (role) {
    case ModelRole::decide: return "decide";
    case ModelRole::verify: return "verify";
    case ModelRole::ask: return "ask";
    case ModelRole::ground: return "ground";
    }
    return "decide";
}

const std::string& ModelsConfig::model_for(ModelRole role) const
{
    return const_cast<ModelsConfig&>(*this).model_for(role);
}

std::string& ModelsConfig::model_for(ModelRole role)
{
    switch (role) {
    case ModelRole::decide: return decide;
    case ModelRole::verify: return verify;
    case ModelRole::ask: return ask;
    case ModelRole::ground: return ground;
    }
    return decide;
}

} // namespace nd_desk
