// Pointer-to-pointer parameters: out pointers, string arrays.
typedef struct agent_s { unsigned long handle; } agent_t;
extern "C" {
int mem_alloc(void** ptr, unsigned long size);
int status_string_out(int status, const char** message);
int list_agents(agent_t** agents, unsigned* count);
}
