print("yarn")
