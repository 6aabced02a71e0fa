print("accord")
