// void return and an empty parameter list.
extern "C" {
void shut_down(void);
void store_relaxed(unsigned long signal, long value);
}
