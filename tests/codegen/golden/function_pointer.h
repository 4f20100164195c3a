// Function-pointer parameters: spelled inline and through a typedef.
typedef struct agent_s { unsigned long handle; } agent_t;
typedef int (*agent_visitor_t)(agent_t agent, void* data);

extern "C" {
int iterate_agents(int (*callback)(agent_t agent, void* data), void* data);
int iterate_agents_typed(agent_visitor_t callback, void* data);
void* pointer_info(const void* ptr, void* (*alloc)(unsigned long size));
}
